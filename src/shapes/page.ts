/** A list procedure's answer: one page of items and where the next one starts (routes/pagination.ts). */
export interface Page<T> {
  readonly data: T[];
  readonly pagination: { cursor?: string; hasMore: boolean };
}
