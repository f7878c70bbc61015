import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { call, data } from '../api.js';
import { useAction, useAsync } from '../hooks.js';
import { AsyncView, Badge, Button, Card, ConfirmModal, Empty, Field, FormModal, Page } from '../ui.js';
import { allPages } from './apis.js';
import type { Permission, Role } from '../answers.js';

function CreatePermission({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }): JSX.Element {
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [description, setDescription] = useState('');
  const action = useAction();
  return (
    <FormModal title="New permission" submitLabel="Create permission" busy={action.busy} error={action.error} onClose={onClose}
      onSubmit={async () => {
        const done = await action.run(() => data('permissions.createPermission', { name: name.trim(), slug: (slug || name).trim(), ...(description.trim() ? { description: description.trim() } : {}) }));
        if (done) onCreated();
      }}>
      <Field label="Name"><input name="permName" required maxLength={512} value={name} onInput={(e) => setName(e.currentTarget.value)} /></Field>
      <Field label="Slug" hint="What keys are checked against, e.g. documents.read (defaults to the name)."><input name="slug" class="mono" value={slug} placeholder={name} onInput={(e) => setSlug(e.currentTarget.value)} /></Field>
      <Field label="Description (optional)"><input value={description} onInput={(e) => setDescription(e.currentTarget.value)} /></Field>
    </FormModal>
  );
}

function CreateRole({ permissions, onClose, onCreated }: { permissions: Permission[]; onClose: () => void; onCreated: () => void }): JSX.Element {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const action = useAction();
  return (
    <FormModal title="New role" submitLabel="Create role" busy={action.busy} error={action.error} onClose={onClose} wide
      onSubmit={async () => {
        const done = await action.run(() => data('permissions.createRole', {
          name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}), ...(chosen.size > 0 ? { permissions: [...chosen] } : {}),
        }));
        if (done) onCreated();
      }}>
      <Field label="Name"><input name="roleName" required value={name} onInput={(e) => setName(e.currentTarget.value)} /></Field>
      <Field label="Description (optional)"><input value={description} onInput={(e) => setDescription(e.currentTarget.value)} /></Field>
      <div class="field-label">Permissions</div>
      {permissions.length === 0 ? <p class="field-hint">No permissions exist yet; create some first, or add them to the role later.</p> : (
        <div class="perm-group perm-flat">
          {permissions.map((p) => (
            <label key={p.id} class="check">
              <input type="checkbox" checked={chosen.has(p.slug)} onChange={() => {
                const next = new Set(chosen);
                if (next.has(p.slug)) next.delete(p.slug); else next.add(p.slug);
                setChosen(next);
              }} />
              <span class="mono">{p.slug}</span>
            </label>
          ))}
        </div>
      )}
    </FormModal>
  );
}

type Deleting = { kind: 'permission'; item: Permission } | { kind: 'role'; item: Role };

export function PermissionsPage(): JSX.Element {
  const permissions = useAsync(() => allPages<Permission>('permissions.listPermissions', { limit: 100 }), []);
  const roles = useAsync(() => allPages<Role>('permissions.listRoles', { limit: 100 }), []);
  const [creating, setCreating] = useState<'permission' | 'role' | null>(null);
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const remove = useAction();
  const newPermission = <Button variant="primary" onClick={() => setCreating('permission')}>New permission</Button>;
  const newRole = <Button onClick={() => setCreating('role')}>New role</Button>;
  return (
    <Page title="Permissions & roles" subtitle="What your API's callers may do: keys carry permissions directly or through roles, and keys.verifyKey checks them.">
      <div class="grid-2 grid-top">
        <Card title="Permissions" actions={newPermission}>
          <AsyncView value={permissions} isEmpty={(list) => list.length === 0}
            empty={<Empty title="No permissions yet">Create permissions such as <code>documents.read</code>, then give them to keys or roles.</Empty>}>
            {(list) => (
              <ul class="list">
                {list.map((p) => (
                  <li key={p.id} class="list-item static" data-testid="permission-row">
                    <span><span class="mono strong">{p.slug}</span>{p.name !== p.slug && <span class="muted"> · {p.name}</span>}{p.description && <div class="muted small">{p.description}</div>}</span>
                    <Button variant="ghost" onClick={() => { remove.clear(); setDeleting({ kind: 'permission', item: p }); }}>Delete</Button>
                  </li>
                ))}
              </ul>
            )}
          </AsyncView>
        </Card>
        <Card title="Roles" actions={newRole}>
          <AsyncView value={roles} isEmpty={(list) => list.length === 0}
            empty={<Empty title="No roles yet">A role bundles permissions: give a key the role and it gets all of them.</Empty>}>
            {(list) => (
              <ul class="list">
                {list.map((r) => (
                  <li key={r.id} class="list-item static" data-testid="role-row">
                    <span>
                      <span class="strong">{r.name}</span>{r.description && <span class="muted"> · {r.description}</span>}
                      <div class="tags">{(r.permissions ?? []).length === 0 ? <span class="muted small">no permissions</span> : r.permissions!.map((p) => <Badge key={p.id} tone="info">{p.slug}</Badge>)}</div>
                    </span>
                    <Button variant="ghost" onClick={() => { remove.clear(); setDeleting({ kind: 'role', item: r }); }}>Delete</Button>
                  </li>
                ))}
              </ul>
            )}
          </AsyncView>
        </Card>
      </div>
      {creating === 'permission' && <CreatePermission onClose={() => setCreating(null)} onCreated={() => { setCreating(null); permissions.reload(); }} />}
      {creating === 'role' && <CreateRole permissions={permissions.data ?? []} onClose={() => setCreating(null)} onCreated={() => { setCreating(null); roles.reload(); }} />}
      {deleting && (
        <ConfirmModal title={`Delete ${deleting.kind}?`} confirmLabel="Delete" busy={remove.busy} error={remove.error} onClose={() => setDeleting(null)}
          onConfirm={async () => {
            const done = await remove.run(async () => {
              if (deleting.kind === 'permission') await call('permissions.deletePermission', { permission: deleting.item.id });
              else await call('permissions.deleteRole', { role: deleting.item.id });
              return true;
            });
            if (done) { setDeleting(null); permissions.reload(); roles.reload(); }
          }}>
          <p><strong>{deleting.kind === 'permission' ? deleting.item.slug : deleting.item.name}</strong> is removed from every key{deleting.kind === 'permission' ? ' and role' : ''} at once.</p>
        </ConfirmModal>
      )}
    </Page>
  );
}
