import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, call, data } from '../api.js';
import { useAction, useAsync } from '../hooks.js';
import { LimitsEditor, LimitsSummary, parseLimits, toDraft, type LimitDraft } from '../limits.js';
import { AsyncView, Button, Card, ConfirmModal, Empty, Field, FormModal, Page, SearchBox } from '../ui.js';
import type { Identity } from '../answers.js';

function EditIdentity({ identity, onClose, onSaved }: { identity: Identity | null; onClose: () => void; onSaved: () => void }): JSX.Element {
  const [externalId, setExternalId] = useState(identity?.externalId ?? '');
  const [limits, setLimits] = useState<LimitDraft[]>((identity?.ratelimits ?? []).map(toDraft));
  const action = useAction();
  return (
    <FormModal title={identity ? `Limits of ${identity.externalId}` : 'New identity'} submitLabel={identity ? 'Save limits' : 'Create identity'}
      busy={action.busy} error={action.error} onClose={onClose} wide
      onSubmit={async () => {
        const done = await action.run(async () => {
          const parsed = parseLimits(limits);
          if ('problem' in parsed) throw new ApiFailure(400, 'Bad Request', parsed.problem);
          if (identity) await data('identities.updateIdentity', { identity: identity.id, ratelimits: parsed.limits });
          else await data('identities.createIdentity', { externalId: externalId.trim(), ...(parsed.limits.length > 0 ? { ratelimits: parsed.limits } : {}) });
          return true;
        });
        if (done) onSaved();
      }}>
      {!identity && (
        <Field label="External id" hint="Your id for the owner (user, team, customer): letters, digits, _ . -">
          <input name="externalId" required maxLength={255} pattern="[a-zA-Z0-9_.\-]+" value={externalId} onInput={(e) => setExternalId(e.currentTarget.value)} />
        </Field>
      )}
      <div class="field-label">Rate limits, shared by every key of this identity</div>
      <LimitsEditor drafts={limits} onChange={setLimits} />
    </FormModal>
  );
}

export function IdentitiesPage(): JSX.Element {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  // The search goes to keygate (identities.listIdentities `search`) once typing pauses.
  useEffect(() => {
    const id = setTimeout(() => { setQuery(search.trim()); setCursors([]); }, 250);
    return () => clearTimeout(id);
  }, [search]);
  const cursor = cursors[cursors.length - 1];
  const page = useAsync(() => call<Identity[]>('identities.listIdentities', { limit: 50, ...(query ? { search: query } : {}), ...(cursor ? { cursor } : {}) }), [query, cursor]);
  const [editing, setEditing] = useState<Identity | null | 'new'>(null);
  const [deleting, setDeleting] = useState<Identity | null>(null);
  const remove = useAction();
  const create = <Button variant="primary" onClick={() => setEditing('new')}>New identity</Button>;
  return (
    <Page title="Identities" subtitle="Owners of keys (a user, a team, a customer): their rate limits apply across all their keys." actions={create}>
      <Card actions={<SearchBox value={search} onInput={setSearch} placeholder="Search by id or external id" />}>
        <AsyncView value={page} isEmpty={(p) => p.data.length === 0 && !cursor}
          empty={query ? <Empty title="No identity matches">Nothing matches “{query}”.</Empty>
            : <Empty title="No identities yet" action={create}>Identities are created here, or by keys.createKey with an externalId.</Empty>}>
          {(p) => (
            <>
              <div class="table-wrap">
                <table class="table">
                  <thead><tr><th>External id</th><th class="hide-sm">Id</th><th>Rate limits</th><th /></tr></thead>
                  <tbody>
                    {p.data.map((identity) => (
                      <tr key={identity.id} data-testid="identity-row">
                        <td class="strong">{identity.externalId}</td>
                        <td class="hide-sm mono small muted">{identity.id}</td>
                        <td class="small"><LimitsSummary limits={identity.ratelimits} /></td>
                        <td class="row-actions">
                          <a class="btn btn-ghost" href={`#/usage?identity=${encodeURIComponent(identity.externalId)}`}>Usage</a>
                          <Button variant="ghost" onClick={() => setEditing(identity)}>Edit limits</Button>
                          <Button variant="ghost" onClick={() => { remove.clear(); setDeleting(identity); }}>Delete</Button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div class="load-more">
                {cursors.length > 0 && <Button onClick={() => setCursors(cursors.slice(0, -1))}>Previous</Button>}
                {p.pagination?.hasMore && p.pagination.cursor && <Button onClick={() => setCursors([...cursors, p.pagination!.cursor!])}>Next</Button>}
              </div>
            </>
          )}
        </AsyncView>
      </Card>
      {editing && <EditIdentity identity={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={() => { setEditing(null); page.reload(); }} />}
      {deleting && (
        <ConfirmModal title="Delete identity?" confirmLabel="Delete identity" busy={remove.busy} error={remove.error} onClose={() => setDeleting(null)}
          onConfirm={async () => {
            const done = await remove.run(async () => { await call('identities.deleteIdentity', { identity: deleting.id }); return true; });
            if (done) { setDeleting(null); page.reload(); }
          }}>
          <p><strong>{deleting.externalId}</strong> is removed; its keys keep working without it and lose its shared limits.</p>
        </ConfirmModal>
      )}
    </Page>
  );
}
