import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ApiFailure, call, data } from '../api.js';
import { useAction, useAsync } from '../hooks.js';
import { AsyncView, Button, Card, ConfirmModal, Empty, Field, FormModal, Page, SearchBox, formatDuration, parseDuration } from '../ui.js';
import { allPages } from './apis.js';
import type { Namespace, Override } from '../answers.js';

export function RatelimitsPage(): JSX.Element {
  const [search, setSearch] = useState('');
  const namespaces = useAsync(() => allPages<Namespace>('ratelimit.listNamespaces', { limit: 100 }), []);
  const needle = search.trim().toLowerCase();
  return (
    <Page title="Rate limits" subtitle="Namespaces of ratelimit.limit, created by their first call. Open one to override its limit for some identifiers.">
      <Card actions={<SearchBox value={search} onInput={setSearch} placeholder="Search namespaces" />}>
        <AsyncView value={namespaces} isEmpty={(list) => list.length === 0}
          empty={<Empty title="No namespaces yet">A namespace appears with the first <code>ratelimit.limit</code> call that names it.</Empty>}>
          {(list) => {
            const shown = list.filter((ns) => !needle || ns.name.toLowerCase().includes(needle) || ns.id.toLowerCase().includes(needle));
            if (shown.length === 0) return <Empty title="No namespace matches">Nothing matches “{search}”.</Empty>;
            return (
              <ul class="list">
                {shown.map((ns) => (
                  <li key={ns.id}>
                    <a class="list-item" href={`#/ratelimits/${encodeURIComponent(ns.id)}`} data-testid="namespace-row">
                      <span class="strong">{ns.name}</span><span class="muted mono small">{ns.id}</span><span class="chevron" aria-hidden="true">›</span>
                    </a>
                  </li>
                ))}
              </ul>
            );
          }}
        </AsyncView>
      </Card>
    </Page>
  );
}

function SetOverride({ namespace, existing, onClose, onSaved }: { namespace: string; existing: Override | null; onClose: () => void; onSaved: () => void }): JSX.Element {
  const [identifier, setIdentifier] = useState(existing?.identifier ?? '');
  const [limit, setLimit] = useState(existing ? String(existing.limit) : '');
  const [duration, setDuration] = useState(existing ? `${existing.duration / 1000}s` : '60s');
  const action = useAction();
  return (
    <FormModal title={existing ? 'Change override' : 'New override'} submitLabel="Save override" busy={action.busy} error={action.error} onClose={onClose}
      onSubmit={async () => {
        const done = await action.run(async () => {
          const ms = parseDuration(duration);
          if (ms === null || ms < 1000) throw new ApiFailure(400, 'Bad Request', 'The window must be at least 1s (e.g. 60s, 5m, 1h).');
          if (!/^\d+$/.test(limit.trim())) throw new ApiFailure(400, 'Bad Request', 'The limit must be a whole number (0 blocks the identifier).');
          return data('ratelimit.setOverride', { namespace, identifier: identifier.trim(), limit: Number(limit), duration: ms });
        });
        if (done) onSaved();
      }}>
      <Field label="Identifier" hint="Exact, or a pattern: * matches any run of characters (user_*)."><input name="identifier" class="mono" required disabled={existing !== null} value={identifier} onInput={(e) => setIdentifier(e.currentTarget.value)} /></Field>
      <div class="grid-2">
        <Field label="Limit" hint="0 blocks it."><input name="limit" inputMode="numeric" required value={limit} onInput={(e) => setLimit(e.currentTarget.value)} /></Field>
        <Field label="Window" hint="e.g. 60s, 5m, 1h"><input name="duration" required value={duration} onInput={(e) => setDuration(e.currentTarget.value)} /></Field>
      </div>
    </FormModal>
  );
}

export function NamespacePage({ namespace }: { namespace: string }): JSX.Element {
  const overrides = useAsync(() => allPages<Override>('ratelimit.listOverrides', { namespace, limit: 100 }), [namespace]);
  const [editing, setEditing] = useState<Override | null | 'new'>(null);
  const [deleting, setDeleting] = useState<Override | null>(null);
  const remove = useAction();
  const create = <Button variant="primary" onClick={() => setEditing('new')}>New override</Button>;
  return (
    <Page title="Overrides" subtitle={<><a href="#/ratelimits">← All namespaces</a> · <span class="mono">{namespace}</span></>} actions={create}>
      <Card>
        <AsyncView value={overrides} isEmpty={(list) => list.length === 0}
          empty={<Empty title="No overrides" action={create}>Every identifier gets the limit its ratelimit.limit call asks for. An override replaces it for some identifiers.</Empty>}>
          {(list) => (
            <div class="table-wrap">
              <table class="table">
                <thead><tr><th>Identifier</th><th>Limit</th><th class="hide-sm">Override id</th><th /></tr></thead>
                <tbody>
                  {list.map((o) => (
                    <tr key={o.overrideId} data-testid="override-row">
                      <td class="mono strong">{o.identifier}</td>
                      <td>{o.limit === 0 ? 'blocked' : `${o.limit} / ${formatDuration(o.duration)}`}</td>
                      <td class="hide-sm mono small muted">{o.overrideId}</td>
                      <td class="row-actions">
                        <Button variant="ghost" onClick={() => setEditing(o)}>Change</Button>
                        <Button variant="ghost" onClick={() => { remove.clear(); setDeleting(o); }}>Delete</Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </AsyncView>
      </Card>
      {editing && <SetOverride namespace={namespace} existing={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={() => { setEditing(null); overrides.reload(); }} />}
      {deleting && (
        <ConfirmModal title="Delete override?" confirmLabel="Delete override" busy={remove.busy} error={remove.error} onClose={() => setDeleting(null)}
          onConfirm={async () => {
            const done = await remove.run(async () => { await call('ratelimit.deleteOverride', { namespace, identifier: deleting.identifier }); return true; });
            if (done) { setDeleting(null); overrides.reload(); }
          }}>
          <p><span class="mono">{deleting.identifier}</span> gets the limit its calls ask for again, at once.</p>
        </ConfirmModal>
      )}
    </Page>
  );
}
