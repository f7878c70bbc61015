import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ACTIONS } from '../../../src/auth/catalogue.js';
import { data, type SessionInfo } from '../api.js';
import { useAction, useAsync } from '../hooks.js';
import { AsyncView, Badge, Button, Card, ConfirmModal, Empty, Field, FormModal, Page, RevealOnce, formatTime } from '../ui.js';
import type { RootKey } from '../answers.js';

const TYPE_LABELS: Record<string, string> = { api: 'APIs and keys', ratelimit: 'Rate limits', rbac: 'Permissions and roles', identity: 'Identities', root_key: 'Root keys' };

/** A tuple the signed-in key may grant: held as such, or the same action held for every resource. */
function grantable(held: ReadonlySet<string>, permission: string): boolean {
  const [type, , action] = permission.split('.');
  return held.has(permission) || held.has(`${type}.*.${action}`);
}

function CreateRootKey({ session, onClose, onCreated }: { session: SessionInfo; onClose: () => void; onCreated: (key: string, name: string) => void }): JSX.Element {
  const held = new Set(session.permissions);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [extra, setExtra] = useState('');
  const action = useAction();
  const toggle = (p: string): void => {
    const next = new Set(chosen);
    if (next.has(p)) next.delete(p); else next.add(p);
    setChosen(next);
  };
  const extras = extra.split(/[\s,]+/).filter(Boolean);
  const submit = async (): Promise<void> => {
    const created = await action.run(() => data<{ key: string }>('rootKeys.createRootKey', { name: name.trim(), permissions: [...chosen, ...extras] }));
    if (created) onCreated(created.key, name.trim());
  };
  const allHeld = Object.entries(ACTIONS).flatMap(([type, actions]) => actions.map((a) => `${type}.*.${a}`)).filter((p) => held.has(p));
  return (
    <FormModal title="New root key" submitLabel="Create root key" busy={action.busy} error={action.error} onSubmit={() => void submit()} onClose={onClose} wide>
      <Field label="Name" hint="Say where it is used, e.g. “billing backend (production)”.">
        <input name="name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </Field>
      <div class="perm-head">
        <span class="field-label">Permissions <span class="muted">({chosen.size + extras.length} chosen)</span></span>
        <span class="perm-tools">
          <button type="button" class="link" onClick={() => setChosen(new Set(allHeld))}>Everything I hold</button>
          <button type="button" class="link" onClick={() => setChosen(new Set())}>None</button>
        </span>
      </div>
      <p class="field-hint">A root key can only grant what it holds itself; the others are greyed out.</p>
      <div class="perm-groups">
        {Object.entries(ACTIONS).map(([type, actions]) => (
          <fieldset key={type} class="perm-group">
            <legend>{TYPE_LABELS[type] ?? type}</legend>
            {actions.map((a) => {
              const p = `${type}.*.${a}`;
              const ok = grantable(held, p);
              return (
                <label key={p} class={`check${ok ? '' : ' is-disabled'}`} title={ok ? p : `${p}: your root key does not hold it`}>
                  <input type="checkbox" value={p} checked={chosen.has(p)} disabled={!ok} onChange={() => toggle(p)} />
                  <span class="mono">{a}</span>
                </label>
              );
            })}
          </fieldset>
        ))}
      </div>
      <Field label="Permissions for single resources (optional)" hint="Tuples naming one resource, e.g. api.api_123.verify_key, separated by spaces or commas." wide>
        <input class="mono" value={extra} onInput={(e) => setExtra(e.currentTarget.value)} placeholder="api.<apiId>.verify_key" />
      </Field>
    </FormModal>
  );
}

export function RootKeysPage({ session }: { session: SessionInfo }): JSX.Element {
  const keys = useAsync(() => data<RootKey[]>('rootKeys.listRootKeys'), []);
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<{ key: string; name: string } | null>(null);
  const [revoking, setRevoking] = useState<RootKey | null>(null);
  const revoke = useAction();
  const mayCreate = session.permissions.includes('root_key.*.create_root_key');
  return (
    <Page title="Root keys" subtitle="Credentials for calling keygate (Authorization: Bearer …) and for signing in here."
      actions={mayCreate && <Button variant="primary" onClick={() => setCreating(true)}>New root key</Button>}>
      <Card>
        <AsyncView value={keys} isEmpty={(list) => list.length === 0}
          empty={<Empty title="No root keys" action={mayCreate && <Button variant="primary" onClick={() => setCreating(true)}>New root key</Button>}>Create one for each service that calls keygate.</Empty>}>
          {(list) => (
            <div class="table-wrap">
              <table class="table">
                <thead><tr><th>Name</th><th class="hide-sm">Key</th><th class="hide-sm">Permissions</th><th class="hide-sm">Created</th><th>Status</th><th /></tr></thead>
                <tbody>
                  {list.map((k) => (
                    <tr key={k.id} data-testid="root-key-row">
                      <td><div class="strong">{k.name ?? '—'}</div><div class="muted mono small">{k.id}{k.id === session.rootKeyId ? ' · this session' : ''}</div></td>
                      <td class="mono small hide-sm">{k.start}…</td>
                      <td class="hide-sm"><span title={k.permissions.join('\n')}>{k.permissions.length} permission{k.permissions.length === 1 ? '' : 's'}</span></td>
                      <td class="hide-sm small">{formatTime(k.createdAt)}</td>
                      <td>{k.revokedAt === undefined ? <Badge tone="good">Active</Badge> : <Badge tone="bad">Revoked</Badge>}</td>
                      <td class="row-actions">{k.revokedAt === undefined && <Button variant="ghost" onClick={() => { revoke.clear(); setRevoking(k); }}>Revoke</Button>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </AsyncView>
      </Card>
      {creating && <CreateRootKey session={session} onClose={() => setCreating(false)} onCreated={(key, name) => { setCreating(false); setRevealed({ key, name }); keys.reload(); }} />}
      {revealed && <RevealOnce title={`Root key “${revealed.name}” created`} secret={revealed.key} onDone={() => setRevealed(null)} />}
      {revoking && (
        <ConfirmModal title="Revoke root key?" confirmLabel="Revoke" busy={revoke.busy} error={revoke.error} onClose={() => setRevoking(null)}
          onConfirm={async () => {
            const done = await revoke.run(() => data('rootKeys.revokeRootKey', { rootKeyId: revoking.id }));
            if (done) { setRevoking(null); keys.reload(); }
          }}>
          <p><strong>{revoking.name ?? revoking.id}</strong> stops working at once, for every service that uses it{revoking.id === session.rootKeyId ? ', and this session ends' : ''}. This cannot be undone.</p>
        </ConfirmModal>
      )}
    </Page>
  );
}
