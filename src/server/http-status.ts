/** Status lines for the statuses keygate writes (uWS takes the whole line). */
const TEXT: Record<number, string> = {
  200: 'OK', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found',
  405: 'Method Not Allowed', 409: 'Conflict', 410: 'Gone', 412: 'Precondition Failed',
  413: 'Payload Too Large', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error', 503: 'Service Unavailable',
};

export const statusLine = (status: number): string => `${status} ${TEXT[status] ?? 'Unknown'}`;

/**
 * The status line with the two headers every answer carries (content type, and nosniff: a browser
 * must never run an answer as anything but what it is labelled), for uWS's writeStatus, which
 * writes its argument verbatim after "HTTP/1.1 ": one call into uWS instead of three. Made once
 * per status and content type (keygate's own, never a client's: no CR or LF can get in), as bytes:
 * uWS copies a string's UTF-8 out of V8 on every call, and takes bytes as they are.
 */
const heads = new Map<number, Map<string, Uint8Array>>();
export function statusHead(status: number, contentType: string): Uint8Array {
  let byType = heads.get(status);
  if (byType === undefined) heads.set(status, byType = new Map());
  let head = byType.get(contentType);
  if (head === undefined) {
    head = Buffer.from(`${statusLine(status)}\r\ncontent-type: ${contentType}\r\nx-content-type-options: nosniff`, 'utf8');
    byType.set(contentType, head);
  }
  return head;
}
