/** `K=V,K=V` (a bench tool's --env) as an environment; a pair without '=' is ignored. */
export const parseSettings = (text: string): Record<string, string> =>
  Object.fromEntries(text.split(',').filter((pair) => pair.includes('=')).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
