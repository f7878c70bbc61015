/**
 * What a call asked to change, as an event keeps it: the request fields, with every field that
 * could hold a secret or a key hash left out, and bounded in size.
 */
/** Fields never kept, at any depth: plaintext keys, root keys, hashes of either, session ids. */
const SECRET_FIELDS = new Set(['key', 'rootKey', 'plaintext', 'hash', 'hashes', 'secret', 'session', 'sessionId', 'csrfToken']);
/** Larger change sets are replaced by a note: events stay small, and one call cannot grow the log much. */
const MAX_CHANGES_CHARS = 4_096;

function withoutSecrets(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, depth + 1));
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) if (!SECRET_FIELDS.has(name)) out[name] = withoutSecrets(field, depth + 1);
  return out;
}

/** The request's fields as an event's `changes`; `omit` drops fields the targets already name. */
export function changesOf(input: unknown, omit: readonly string[] = []): Record<string, unknown> | undefined {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const kept = withoutSecrets(input, 0) as Record<string, unknown>;
  for (const name of omit) delete kept[name];
  if (Object.keys(kept).length === 0) return undefined;
  const size = JSON.stringify(kept).length;
  return size > MAX_CHANGES_CHARS ? { truncated: true, fields: Object.keys(kept), size } : kept;
}
