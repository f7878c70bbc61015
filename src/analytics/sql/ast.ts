/**
 * The syntax tree of one analytics query, as parsed (sql/parser.ts): nothing here is resolved
 * yet. Names of columns and functions are as written; the planner binds them.
 */

export type IntervalUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '=' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

export type Expr =
  | { readonly kind: 'literal'; readonly value: number | string | null }
  /** A column, or a projection's alias (the planner decides); `table` when written `t.name`. */
  | { readonly kind: 'name'; readonly name: string; readonly table?: string }
  /** `*` as the argument of count(*). */
  | { readonly kind: 'star' }
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly Expr[]; readonly distinct: boolean }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'not'; readonly operand: Expr }
  | { readonly kind: 'negate'; readonly operand: Expr }
  | { readonly kind: 'in'; readonly operand: Expr; readonly list: readonly Expr[]; readonly negated: boolean }
  | { readonly kind: 'between'; readonly operand: Expr; readonly low: Expr; readonly high: Expr; readonly negated: boolean }
  | { readonly kind: 'like'; readonly operand: Expr; readonly pattern: Expr; readonly negated: boolean; readonly caseInsensitive: boolean }
  | { readonly kind: 'isNull'; readonly operand: Expr; readonly negated: boolean }
  | { readonly kind: 'interval'; readonly amount: Expr; readonly unit: IntervalUnit }
  | { readonly kind: 'case'; readonly operand?: Expr; readonly whens: readonly { readonly when: Expr; readonly then: Expr }[]; readonly otherwise?: Expr }
  | { readonly kind: 'array'; readonly items: readonly Expr[] };

export interface SelectItem {
  readonly expr: Expr;
  readonly alias?: string;
  /** The expression as written (whitespace collapsed): the column name when there is no alias. */
  readonly text: string;
}

export interface OrderItem {
  readonly expr: Expr;
  readonly descending: boolean;
}

export interface SelectQuery {
  readonly distinct: boolean;
  /** `SELECT *` (alone; `*` cannot be combined with other projections). */
  readonly star: boolean;
  readonly items: readonly SelectItem[];
  readonly table: string;
  readonly tableAlias?: string;
  readonly where?: Expr;
  readonly groupBy: readonly Expr[];
  readonly having?: Expr;
  readonly orderBy: readonly OrderItem[];
  readonly limit?: number;
  readonly offset?: number;
}
