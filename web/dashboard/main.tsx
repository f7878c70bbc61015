/**
 * keygate's dashboard: a small Preact app served at /dashboard. Sign in with a root key; every
 * page then calls the ordinary procedures with that key's permissions (api.ts).
 */
import 'uplot/dist/uPlot.min.css';
import './style.css';
import type { JSX } from 'preact';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { currentSession, onSignedOut, signOut, type SessionInfo } from './api.js';
import { useHashRoute } from './hooks.js';
import { ApiDetailPage, ApisPage } from './pages/apis.js';
import { AuditLogPage } from './pages/audit-log.js';
import { IdentitiesPage } from './pages/identities.js';
import { PermissionsPage } from './pages/permissions.js';
import { NamespacePage, RatelimitsPage } from './pages/ratelimits.js';
import { RootKeysPage } from './pages/root-keys.js';
import { SignIn } from './pages/sign-in.js';
import { UsagePage } from './pages/usage.js';
import { Button, ErrorState, Loading } from './ui.js';
import { ApiFailure } from './api.js';

const NAV = [
  ['/usage', 'Usage'],
  ['/apis', 'APIs & keys'],
  ['/identities', 'Identities'],
  ['/ratelimits', 'Rate limits'],
  ['/permissions', 'Permissions'],
  ['/root-keys', 'Root keys'],
  ['/audit-log', 'Audit log'],
] as const;

function Routed({ route, session }: { route: string; session: SessionInfo }): JSX.Element {
  const [, section, id] = route.split('/');
  const query = new URLSearchParams(route.split('?')[1] ?? '');
  switch (section?.split('?')[0]) {
    case 'apis': return id ? <ApiDetailPage apiId={id.split('?')[0]!} /> : <ApisPage />;
    case 'identities': return <IdentitiesPage />;
    case 'ratelimits': return id ? <NamespacePage namespace={id} /> : <RatelimitsPage />;
    case 'permissions': return <PermissionsPage />;
    case 'root-keys': return <RootKeysPage session={session} />;
    case 'audit-log': return <AuditLogPage initialTarget={query.get('target') ?? ''} />;
    default: return <UsagePage initialApi={query.get('api') ?? ''} initialKey={query.get('key') ?? ''} initialIdentity={query.get('identity') ?? ''} />;
  }
}

function Shell({ session, onSignOut }: { session: SessionInfo; onSignOut: () => void }): JSX.Element {
  const route = useHashRoute();
  const [busy, setBusy] = useState(false);
  const current = `/${route.split('/')[1]?.split('?')[0] ?? ''}`;
  return (
    <div class="shell">
      <header class="topbar">
        <a class="brand" href="#/usage"><span class="brand-mark" aria-hidden="true">◆</span> keygate</a>
        <nav class="nav" aria-label="Sections">
          {NAV.map(([path, label]) => <a key={path} href={`#${path}`} class={current === path ? 'active' : ''} aria-current={current === path ? 'page' : undefined}>{label}</a>)}
        </nav>
        <div class="whoami">
          <span class="whoami-name" title={session.rootKeyId}>{session.name ?? session.rootKeyId}</span>
          <Button variant="ghost" busy={busy} onClick={async () => {
            setBusy(true);
            try { await signOut(); } finally { onSignOut(); }
          }}>Sign out</Button>
        </div>
      </header>
      <main class="content"><Routed route={route} session={session} /></main>
    </div>
  );
}

function App(): JSX.Element {
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined);
  const [startError, setStartError] = useState<ApiFailure | null>(null);
  const [ended, setEnded] = useState('');
  const check = (): void => {
    setStartError(null);
    currentSession().then(setSession, (err: unknown) => setStartError(err instanceof ApiFailure ? err : new ApiFailure(0, 'Error', String(err))));
  };
  useEffect(check, []);
  useEffect(() => onSignedOut((reason) => { setEnded(reason); setSession(null); }), []);
  if (startError) return <div class="center"><ErrorState error={startError} onRetry={check} /></div>;
  if (session === undefined) return <div class="center"><Loading label="Checking your session…" /></div>;
  if (session === null) return <SignIn notice={ended} onSignedIn={(s) => { setEnded(''); setSession(s); }} />;
  return <Shell session={session} onSignOut={() => setSession(null)} />;
}

render(<App />, document.getElementById('app')!);
