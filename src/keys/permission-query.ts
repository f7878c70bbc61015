/**
 * The verifyKey `permissions` query language:
 *   expression := and ( OR and )*      and := primary ( AND primary )*
 *   primary    := PERMISSION | "(" expression ")"
 * AND binds tighter than OR; operators are case-insensitive whole words; a permission is a run of
 * letters, digits and . _ - : * / and must equal one of the key's slugs exactly (`*` is literal).
 */
import { ApiError } from '../errors/api-error.js';

export type PermissionQuery =
  | { readonly kind: 'permission'; readonly slug: string }
  | { readonly kind: 'and' | 'or'; readonly children: readonly PermissionQuery[] };

interface Token { readonly type: 'word' | 'and' | 'or' | '(' | ')'; readonly text: string; readonly at: number }

const WORD = /[A-Za-z0-9._\-:*/]/;

const syntaxError = (detail: string): ApiError => new ApiError('err:user:bad_request:permissions_query_syntax_error', detail);

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const ch = query[i] as string;
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') { i++; continue; }
    if (ch === '(' || ch === ')') { tokens.push({ type: ch, text: ch, at: i }); i++; continue; }
    if (!WORD.test(ch)) {
      throw syntaxError(`Invalid character '${ch}' found in query at position ${i}. Permissions may contain letters, digits and . _ - : * /.`);
    }
    const start = i;
    while (i < query.length && WORD.test(query[i] as string)) i++;
    const text = query.slice(start, i);
    const upper = text.toUpperCase();
    tokens.push({ type: upper === 'AND' ? 'and' : upper === 'OR' ? 'or' : 'word', text, at: start });
  }
  return tokens;
}

export function parsePermissionQuery(query: string): PermissionQuery {
  const tokens = tokenize(query);
  if (tokens.length === 0) throw syntaxError('The permissions query is empty.');
  let pos = 0;
  const describe = (t: Token | undefined): string => (t ? `'${t.text}' at position ${t.at}` : 'end of query');

  const primary = (): PermissionQuery => {
    const t = tokens[pos];
    if (t?.type === 'word') { pos++; return { kind: 'permission', slug: t.text }; }
    if (t?.type === '(') {
      if (tokens[pos + 1]?.type === ')') throw syntaxError(`Empty parentheses found at position ${t.at}.`);
      pos++;
      const inner = expression();
      if (tokens[pos]?.type !== ')') throw syntaxError(`Missing closing parenthesis ')' for the one at position ${t.at}.`);
      pos++;
      return inner;
    }
    if (!t) throw syntaxError('Unexpected end of query: a permission or ( was expected.');
    throw syntaxError(`Unexpected token ${describe(t)}: a permission or ( was expected.`);
  };
  const chain = (kind: 'and' | 'or', next: () => PermissionQuery): PermissionQuery => {
    const children = [next()];
    while (tokens[pos]?.type === kind) { pos++; children.push(next()); }
    return children.length === 1 ? (children[0] as PermissionQuery) : { kind, children };
  };
  const and = (): PermissionQuery => chain('and', primary);
  const expression = (): PermissionQuery => chain('or', and);

  const result = expression();
  if (pos < tokens.length) throw syntaxError(`Unexpected token ${describe(tokens[pos])}: AND, OR or the end of the query was expected.`);
  return result;
}

export function isSatisfied(query: PermissionQuery, granted: ReadonlySet<string>): boolean {
  switch (query.kind) {
    case 'permission': return granted.has(query.slug);
    case 'and': return query.children.every((c) => isSatisfied(c, granted));
    case 'or': return query.children.some((c) => isSatisfied(c, granted));
  }
}
