import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { call, data } from '../api.js';
import { navigate, useAction, useAsync } from '../hooks.js';
import { LimitsEditor, LimitsSummary, parseLimits, type LimitDraft } from '../limits.js';
import {
  AsyncView, Badge, Button, Card, ConfirmModal, Empty, Field, FormModal, Page, RevealOnce, SearchBox, formatCount, formatTime,
} from '../ui.js';
import { ApiFailure } from '../api.js';
import type { Api, Key } from '../answers.js';

/** Every page of a list procedure, read in order (lists are small enough for a dashboard). */
async function allPages<T>(procedure: string, body: Record<string, unknown>, max = 20): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < max; page++) {
    const res = await call<T[]>(procedure, { ...body, ...(cursor ? { cursor } : {}) });
    out.push(...res.data);
    if (!res.pagination?.hasMore || !res.pagination.cursor) break;
    cursor = res.pagination.cursor;
  }
  return out;
}
export { allPages };

function CreateApi({ onClose, onCreated }: { onClose: () => void; onCreated: (apiId: string) => void }): JSX.Element {
  const [name, setName] = useState('');
  const action = useAction();
  return (
    <FormModal title="New API" submitLabel="Create API" busy={action.busy} error={action.error} onClose={onClose}
      onSubmit={async () => {
        const created = await action.run(() => data<{ apiId: string }>('apis.createApi', { name: name.trim() }));
        if (created) onCreated(created.apiId);
      }}>
      <Field label="Name" hint="3 to 256 characters, e.g. “weather-api”. Keys are issued per API.">
        <input name="apiName" required minLength={3} maxLength={256} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </Field>
    </FormModal>
  );
}

export function ApisPage(): JSX.Element {
  const apis = useAsync(() => allPages<Api>('apis.listApis', {}), []);
  const [creating, setCreating] = useState(false);
  const create = <Button variant="primary" onClick={() => setCreating(true)}>New API</Button>;
  return (
    <Page title="APIs & keys" subtitle="Each API has its own keys. Open one to issue, disable, reroll or delete keys." actions={create}>
      <Card>
        <AsyncView value={apis} isEmpty={(list) => list.length === 0}
          empty={<Empty title="No APIs yet" action={create}>Create an API for each service whose callers need keys.</Empty>}>
          {(list) => (
            <ul class="list">
              {list.map((api) => (
                <li key={api.id}>
                  <a class="list-item" href={`#/apis/${api.id}`} data-testid="api-row">
                    <span class="strong">{api.name}</span>
                    <span class="muted mono small">{api.id}</span>
                    <span class="chevron" aria-hidden="true">›</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </AsyncView>
      </Card>
      {creating && <CreateApi onClose={() => setCreating(false)} onCreated={(apiId) => { setCreating(false); navigate(`/apis/${apiId}`); }} />}
    </Page>
  );
}

function CreateKey({ apiId, onClose, onCreated }: { apiId: string; onClose: () => void; onCreated: (key: string) => void }): JSX.Element {
  const [name, setName] = useState('');
  const [prefix, setPrefix] = useState('');
  const [externalId, setExternalId] = useState('');
  const [credits, setCredits] = useState('');
  const [refill, setRefill] = useState<'' | 'daily' | 'monthly'>('');
  const [refillAmount, setRefillAmount] = useState('');
  const [expires, setExpires] = useState('');
  const [limits, setLimits] = useState<LimitDraft[]>([]);
  const action = useAction();
  const submit = async (): Promise<void> => {
    const parsed = parseLimits(limits);
    const body: Record<string, unknown> = { apiId };
    if (name.trim()) body.name = name.trim();
    if (prefix.trim()) body.prefix = prefix.trim();
    if (externalId.trim()) body.externalId = externalId.trim();
    if (credits.trim()) {
      body.credits = {
        remaining: Number(credits),
        ...(refill ? { refill: { interval: refill, amount: Number(refillAmount || credits), ...(refill === 'monthly' ? { refillDay: 1 } : {}) } } : {}),
      };
    }
    if (expires) body.expires = new Date(expires).getTime();
    const created = await action.run(async () => {
      if ('problem' in parsed) throw new ApiFailure(400, 'Bad Request', parsed.problem);
      if (parsed.limits.length > 0) body.ratelimits = parsed.limits;
      return data<{ key: string }>('keys.createKey', body);
    });
    if (created) onCreated(created.key);
  };
  return (
    <FormModal title="New key" submitLabel="Create key" busy={action.busy} error={action.error} onSubmit={() => void submit()} onClose={onClose} wide>
      <div class="grid-2">
        <Field label="Name (optional)"><input name="keyName" maxLength={255} value={name} onInput={(e) => setName(e.currentTarget.value)} /></Field>
        <Field label="Prefix (optional)" hint="Letters, digits, _ (e.g. sk_live)."><input name="prefix" class="mono" maxLength={16} pattern="[a-zA-Z0-9_]+" value={prefix} onInput={(e) => setPrefix(e.currentTarget.value)} /></Field>
        <Field label="Owner (externalId, optional)" hint="Keys of one owner share the identity's limits."><input name="externalId" maxLength={255} value={externalId} onInput={(e) => setExternalId(e.currentTarget.value)} /></Field>
        <Field label="Expires (optional)"><input name="expires" type="datetime-local" value={expires} onInput={(e) => setExpires(e.currentTarget.value)} /></Field>
        <Field label="Credits (optional)" hint="Each verification costs 1 by default; empty means unlimited."><input name="credits" inputMode="numeric" pattern="[0-9]*" value={credits} onInput={(e) => setCredits(e.currentTarget.value)} /></Field>
        <Field label="Refill credits">
          <div class="inline">
            <select value={refill} onChange={(e) => setRefill(e.currentTarget.value as '' | 'daily' | 'monthly')} disabled={!credits.trim()}>
              <option value="">never</option><option value="daily">daily</option><option value="monthly">monthly (1st)</option>
            </select>
            {refill && <input aria-label="Refill amount" inputMode="numeric" placeholder={credits || 'amount'} value={refillAmount} onInput={(e) => setRefillAmount(e.currentTarget.value)} />}
          </div>
        </Field>
      </div>
      <div class="field-label">Rate limits</div>
      <LimitsEditor drafts={limits} onChange={setLimits} />
    </FormModal>
  );
}

function keyStatus(key: Key, now: number): JSX.Element {
  if (!key.enabled) return <Badge tone="warn">Disabled</Badge>;
  if (key.expires !== undefined && key.expires <= now) return <Badge tone="bad">Expired</Badge>;
  if (key.credits && key.credits.remaining === 0) return <Badge tone="warn">No credits</Badge>;
  return <Badge tone="good">Active</Badge>;
}

type KeyAction = { kind: 'reroll' | 'delete'; key: Key } | { kind: 'delete-api' };

export function ApiDetailPage({ apiId }: { apiId: string }): JSX.Element {
  const api = useAsync(() => data<Api>('apis.getApi', { apiId }), [apiId]);
  const [pages, setPages] = useState(1);
  const keys = useAsync(async () => {
    const out: Key[] = [];
    let cursor: string | undefined;
    let hasMore = false;
    for (let page = 0; page < pages; page++) {
      const res = await call<Key[]>('apis.listKeys', { apiId, limit: 100, ...(cursor ? { cursor } : {}) });
      out.push(...res.data);
      hasMore = res.pagination?.hasMore ?? false;
      cursor = res.pagination?.cursor;
      if (!hasMore || !cursor) break;
    }
    return { keys: out, hasMore };
  }, [apiId, pages]);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<string | null>(null);
  const [pending, setPending] = useState<KeyAction | null>(null);
  const [rerollGrace, setRerollGrace] = useState('0');
  const action = useAction();
  const toggle = useAction();
  const now = Date.now();
  const needle = search.trim().toLowerCase();
  const matches = (k: Key): boolean => !needle || [k.keyId, k.name, k.start, k.identity?.externalId].some((f) => (f ?? '').toLowerCase().includes(needle));
  const title = api.data?.name ?? (api.state === 'error' ? 'API' : '…');
  const create = <Button variant="primary" onClick={() => setCreating(true)}>New key</Button>;
  if (api.state === 'error' && !api.data) {
    return <Page title="API" subtitle={<a href="#/apis">← All APIs</a>}><Card><AsyncView value={api}>{() => null}</AsyncView></Card></Page>;
  }
  return (
    <Page title={title} subtitle={<><a href="#/apis">← All APIs</a> · <span class="mono">{apiId}</span> · <a href={`#/usage?api=${apiId}`}>Usage</a> · <a href={`#/audit-log?target=${apiId}`}>Audit log</a></>}
      actions={<>{create}<Button variant="danger" onClick={() => { action.clear(); setPending({ kind: 'delete-api' }); }}>Delete API</Button></>}>
      <Card title="Keys" actions={<SearchBox value={search} onInput={setSearch} placeholder="Search keys: name, id, start, owner" />}>
        {toggle.error && <div class="inline-error" role="alert">{toggle.error.detail}</div>}
        <AsyncView value={keys} isEmpty={(d) => d.keys.length === 0}
          empty={<Empty title="No keys yet" action={create}>Issue a key for each caller of this API. Its secret is shown once.</Empty>}>
          {({ keys: list, hasMore }) => {
            const shown = list.filter(matches);
            return (
              <>
                {shown.length === 0 ? <Empty title="No key matches">Nothing among {formatCount(list.length)} loaded keys matches “{search}”.{hasMore ? ' Load more keys to search further.' : ''}</Empty> : (
                  <div class="table-wrap">
                    <table class="table">
                      <thead><tr><th>Key</th><th class="hide-sm">Owner</th><th class="hide-sm">Credits</th><th class="hide-md">Limits</th><th>Status</th><th /></tr></thead>
                      <tbody>
                        {shown.map((k) => (
                          <tr key={k.keyId} data-testid="key-row">
                            <td><div class="strong">{k.name ?? <span class="muted">unnamed</span>}</div><div class="muted mono small">{k.start}… · {k.keyId}</div></td>
                            <td class="hide-sm">{k.identity ? k.identity.externalId : <span class="muted">—</span>}</td>
                            <td class="hide-sm">{k.credits ? <>{formatCount(k.credits.remaining)}{k.credits.refill && <span class="muted small"> ({k.credits.refill.interval} {formatCount(k.credits.refill.amount)})</span>}</> : <span class="muted">unlimited</span>}</td>
                            <td class="hide-md small"><LimitsSummary limits={k.ratelimits} /></td>
                            <td>{keyStatus(k, now)}{k.expires !== undefined && k.expires > now && <div class="muted small">until {formatTime(k.expires)}</div>}</td>
                            <td class="row-actions">
                              <a class="btn btn-ghost" href={`#/usage?key=${k.keyId}`}>Usage</a>
                              <Button variant="ghost" busy={toggle.busy} onClick={async () => {
                                const done = await toggle.run(() => data('keys.updateKey', { keyId: k.keyId, enabled: !k.enabled }));
                                if (done) keys.reload();
                              }}>{k.enabled ? 'Disable' : 'Enable'}</Button>
                              <Button variant="ghost" onClick={() => { action.clear(); setPending({ kind: 'reroll', key: k }); }}>Reroll</Button>
                              <Button variant="ghost" onClick={() => { action.clear(); setPending({ kind: 'delete', key: k }); }}>Delete</Button>
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
                {hasMore && <div class="load-more"><Button onClick={() => setPages(pages + 1)} busy={keys.state === 'loading'}>Load more keys</Button></div>}
              </>
            );
          }}
        </AsyncView>
      </Card>
      {creating && <CreateKey apiId={apiId} onClose={() => setCreating(false)} onCreated={(key) => { setCreating(false); setRevealed(key); keys.reload(); }} />}
      {revealed && <RevealOnce title="Key created" secret={revealed} onDone={() => setRevealed(null)}><p class="field-hint">Hand it to the caller; your API verifies it with keys.verifyKey.</p></RevealOnce>}
      {pending?.kind === 'reroll' && (
        <ConfirmModal title="Reroll key?" confirmLabel="Reroll" busy={action.busy} error={action.error} onClose={() => setPending(null)}
          onConfirm={async () => {
            const res = await action.run(() => data<{ key: string }>('keys.rerollKey', { keyId: pending.key.keyId, expiration: Number(rerollGrace) }));
            if (res) { setPending(null); setRevealed(res.key); keys.reload(); }
          }}>
          <p>A new key with the same settings replaces <strong>{pending.key.name ?? pending.key.keyId}</strong>.</p>
          <Field label="The old key stops working">
            <select value={rerollGrace} onChange={(e) => setRerollGrace(e.currentTarget.value)}>
              <option value="0">at once</option><option value="3600000">in 1 hour</option><option value="86400000">in 24 hours</option>
            </select>
          </Field>
        </ConfirmModal>
      )}
      {pending?.kind === 'delete' && (
        <ConfirmModal title="Delete key?" confirmLabel="Delete key" busy={action.busy} error={action.error} onClose={() => setPending(null)}
          onConfirm={async () => {
            const res = await action.run(() => data('keys.deleteKey', { keyId: pending.key.keyId }));
            if (res) { setPending(null); keys.reload(); }
          }}>
          <p><strong>{pending.key.name ?? pending.key.keyId}</strong> stops verifying at once. This cannot be undone.</p>
        </ConfirmModal>
      )}
      {pending?.kind === 'delete-api' && (
        <ConfirmModal title="Delete API?" confirmLabel="Delete API" busy={action.busy} error={action.error} onClose={() => setPending(null)}
          onConfirm={async () => {
            const res = await action.run(() => data('apis.deleteApi', { apiId }));
            if (res) { setPending(null); navigate('/apis'); }
          }}>
          <p>Every key of <strong>{title}</strong> stops verifying at once. This cannot be undone.</p>
        </ConfirmModal>
      )}
    </Page>
  );
}
