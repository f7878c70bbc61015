/**
 * The audit log (auditLogs.listAuditLogs): who changed what, when, through which root key, newest
 * first, with the procedure's filters. Targets link to their pages where the dashboard has one.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.js';
import { useAsync } from '../hooks.js';
import { AsyncView, Badge, Button, Card, Empty, Page } from '../ui.js';

interface Target { type: string; id: string; name?: string }
interface AuditEvent {
  eventId: string;
  time: number;
  actor: { type: 'root_key' | 'cli' | 'bootstrap'; id?: string; name?: string };
  session?: string;
  procedure: string;
  targets: Target[];
  requestId?: string;
  clientAddress?: string;
  summary: string;
}

interface Filters { actor: string; targetId: string; procedure: string; from: string; to: string }

const EMPTY: Filters = { actor: '', targetId: '', procedure: '', from: '', to: '' };

/** A `datetime-local` value (local time) as unix ms; undefined when empty or unreadable. */
function localMs(value: string): number | undefined {
  const ms = value === '' ? Number.NaN : new Date(value).getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

/** Where the dashboard shows a target, if anywhere; an override is shown on its namespace's page. */
function targetHref(target: Target, all: readonly Target[]): string | null {
  switch (target.type) {
    case 'api': return `#/apis/${target.id}`;
    case 'key': return `#/usage?key=${target.id}`;
    case 'identity': return target.name ? `#/usage?identity=${encodeURIComponent(target.name)}` : '#/identities';
    case 'namespace': return `#/ratelimits/${encodeURIComponent(target.id)}`;
    case 'override': {
      const namespace = all.find((t) => t.type === 'namespace');
      return namespace ? `#/ratelimits/${encodeURIComponent(namespace.id)}` : null;
    }
    case 'permission': case 'role': return '#/permissions';
    case 'root_key': return '#/root-keys';
    default: return null;
  }
}

function TargetLink({ target, all }: { target: Target; all: readonly Target[] }): JSX.Element {
  const href = targetHref(target, all);
  const label = <><span class="muted small">{target.type.replace('_', ' ')}</span> {target.name ?? <span class="mono small">{target.id}</span>}</>;
  return href
    ? <a href={href} title={target.id} data-testid="audit-target">{label}</a>
    : <span title={target.id} data-testid="audit-target">{label}</span>;
}

function Actor({ event }: { event: AuditEvent }): JSX.Element {
  const { actor } = event;
  if (actor.type !== 'root_key') return <Badge tone="neutral">{actor.type === 'cli' ? 'command line' : 'ROOT_KEY at start-up'}</Badge>;
  return (
    <span title={actor.id}>
      {actor.name ?? <span class="mono small">{actor.id}</span>}
      {event.session && <> <Badge tone="info">dashboard</Badge></>}
    </span>
  );
}

export function AuditLogPage({ initialTarget }: { initialTarget: string }): JSX.Element {
  const [draft, setDraft] = useState<Filters>({ ...EMPTY, targetId: initialTarget });
  const [applied, setApplied] = useState<Filters>({ ...EMPTY, targetId: initialTarget });
  const [cursors, setCursors] = useState<string[]>([]);
  useEffect(() => { setDraft({ ...EMPTY, targetId: initialTarget }); setApplied({ ...EMPTY, targetId: initialTarget }); setCursors([]); }, [initialTarget]);
  const cursor = cursors[cursors.length - 1];
  const page = useAsync(() => {
    const from = localMs(applied.from);
    const to = localMs(applied.to);
    return call<AuditEvent[]>('auditLogs.listAuditLogs', {
      limit: 50,
      ...(cursor ? { cursor } : {}),
      ...(applied.actor.trim() ? { actor: applied.actor.trim() } : {}),
      ...(applied.targetId.trim() ? { targetId: applied.targetId.trim() } : {}),
      ...(applied.procedure.trim() ? { procedure: applied.procedure.trim() } : {}),
      ...(from !== undefined ? { startTime: from } : {}),
      ...(to !== undefined ? { endTime: to } : {}),
    });
  }, [applied, cursor]);
  const set = (field: keyof Filters) => (e: { currentTarget: HTMLInputElement }): void => setDraft({ ...draft, [field]: e.currentTarget.value });
  const filtered = Object.values(applied).some((v) => v.trim() !== '');
  return (
    <Page title="Audit log" subtitle="Every change to keys, APIs, identities, permissions, limits and root keys: who made it, when, and from where. Verifications and limit checks are not listed (see Usage).">
      <Card actions={
        <form class="toolbar" aria-label="Filters" onSubmit={(e) => { e.preventDefault(); setCursors([]); setApplied(draft); }}>
          <input aria-label="Actor" placeholder="Actor: rk_…, cli" value={draft.actor} onInput={set('actor')} />
          <input aria-label="Target id" placeholder="Target: api_…, key_…" value={draft.targetId} onInput={set('targetId')} />
          <input aria-label="Procedure" placeholder="Procedure: keys.createKey" value={draft.procedure} onInput={set('procedure')} />
          <input aria-label="From" type="datetime-local" value={draft.from} onInput={set('from')} />
          <input aria-label="To" type="datetime-local" value={draft.to} onInput={set('to')} />
          <Button type="submit" variant="primary">Apply</Button>
          {filtered && <Button onClick={() => { setDraft(EMPTY); setApplied(EMPTY); setCursors([]); }}>Clear</Button>}
        </form>
      }>
        <AsyncView value={page} isEmpty={(p) => p.data.length === 0 && !cursor && !p.pagination?.hasMore}
          empty={filtered ? <Empty title="No event matches">Nothing in the log matches these filters.</Empty>
            : <Empty title="No changes yet">Changes made through the API, the dashboard or the command line appear here.</Empty>}>
          {(p) => (
            <>
              <div class="table-wrap">
                <table class="table">
                  <thead><tr><th>Time</th><th>Actor</th><th>Change</th><th>Targets</th><th class="hide-sm">Request</th></tr></thead>
                  <tbody>
                    {p.data.map((event) => (
                      <tr key={event.eventId} data-testid="audit-row">
                        <td class="small" style={{ whiteSpace: 'nowrap' }} title={String(event.time)}>{new Date(event.time).toLocaleString()}</td>
                        <td class="small"><Actor event={event} /></td>
                        <td><div class="strong mono small">{event.procedure}</div><div class="small muted">{event.summary}</div></td>
                        <td class="small"><div class="tags">{event.targets.map((t) => <TargetLink key={`${t.type}:${t.id}`} target={t} all={event.targets} />)}</div></td>
                        <td class="hide-sm mono small muted">{event.requestId}{event.clientAddress && <div>{event.clientAddress}</div>}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {p.data.length === 0 && <p class="muted small">No event on this page matches; the log goes on.</p>}
              <div class="load-more">
                {cursors.length > 0 && <Button onClick={() => setCursors(cursors.slice(0, -1))}>Newer</Button>}
                {p.pagination?.hasMore && p.pagination.cursor && <Button onClick={() => setCursors([...cursors, p.pagination!.cursor!])}>Older</Button>}
              </div>
            </>
          )}
        </AsyncView>
      </Card>
    </Page>
  );
}
