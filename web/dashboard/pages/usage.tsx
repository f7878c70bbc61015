import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { data } from '../api.js';
import { OUTCOME_COLORS, UsageChart, outcomeLabel } from '../chart.js';
import { useAsync, useInterval } from '../hooks.js';
import {
  OUTCOMES, RANGES, breakdownQuery, timeSeriesQuery, toBreakdown, toSeries, type Dimension, type RangeId, type Scope,
} from '../usage-query.js';
import { AsyncView, Card, Empty, Page, formatCount } from '../ui.js';
import { allPages } from './apis.js';

const LIVE_MS = 5_000;

function Stat({ label, value, tone, hint }: { label: string; value: number; tone?: string; hint?: string }): JSX.Element {
  return (
    <div class="stat" data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}>
      <div class="stat-label">{tone && <span class="dot" style={{ background: tone }} />}{label}</div>
      <div class="stat-value">{formatCount(value)}</div>
      {hint && <div class="muted small">{hint}</div>}
    </div>
  );
}

const DIMENSION_LABELS: Record<Dimension, string> = { api: 'API', key: 'Key', identity: 'Identity' };

export function UsagePage({ initialApi, initialKey, initialIdentity }: { initialApi: string; initialKey: string; initialIdentity: string }): JSX.Element {
  const [rangeId, setRangeId] = useState<RangeId>('1h');
  const [apiId, setApiId] = useState(initialApi);
  const [keyId, setKeyId] = useState(initialKey);
  const [externalId, setExternalId] = useState(initialIdentity);
  const [live, setLive] = useState(true);
  const [dimension, setDimension] = useState<Dimension>(initialKey ? 'identity' : initialApi ? 'key' : 'api');
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);
  // Typing in the filters applies once it pauses.
  const [scope, setScope] = useState<Scope>({});
  useEffect(() => {
    const id = setTimeout(() => setScope({ ...(apiId ? { apiId } : {}), ...(keyId.trim() ? { keyId: keyId.trim() } : {}), ...(externalId.trim() ? { externalId: externalId.trim() } : {}) }), 300);
    return () => clearTimeout(id);
  }, [apiId, keyId, externalId]);

  const range = RANGES.find((r) => r.id === rangeId)!;
  const apis = useAsync(() => allPages<{ id: string; name: string }>('apis.listApis', { limit: 100 }).catch(() => []), []);
  const apiName = (id: string): string => apis.data?.find((a) => a.id === id)?.name ?? id;
  const series = useAsync(async () => {
    const rows = await data<Record<string, unknown>[]>('analytics.getVerifications', { query: timeSeriesQuery(range, scope) });
    setUpdatedAt(Date.now());
    return toSeries(rows, range, Date.now());
  }, [rangeId, scope]);
  const breakdown = useAsync(async () => toBreakdown(await data<Record<string, unknown>[]>('analytics.getVerifications', { query: breakdownQuery(range, scope, dimension) })), [rangeId, scope, dimension]);
  useInterval(() => { series.reload(); breakdown.reload(); }, LIVE_MS, live);

  const denied = (totals: Map<string, number>): number => [...totals].filter(([o]) => o !== 'VALID' && o !== 'RATE_LIMITED').reduce((s, [, n]) => s + n, 0);
  const filtered = Boolean(scope.apiId || scope.keyId || scope.externalId);
  // A keygate without analytics: one explanation is enough.
  const unavailable = series.state === 'error' && series.error.status === 404;

  return (
    <Page title="Usage" subtitle="Key verifications over time, by outcome.">
      <div class="toolbar">
        <div class="segmented" role="group" aria-label="Time range">
          {RANGES.map((r) => <button key={r.id} class={r.id === rangeId ? 'active' : ''} aria-pressed={r.id === rangeId} onClick={() => setRangeId(r.id)}>{r.label}</button>)}
        </div>
        <select aria-label="API" value={apiId} onChange={(e) => setApiId(e.currentTarget.value)}>
          <option value="">All APIs</option>
          {(apis.data ?? []).map((a) => <option key={a.id} value={a.id}>{a.name}</option>)}
          {apiId && !(apis.data ?? []).some((a) => a.id === apiId) && <option value={apiId}>{apiId}</option>}
        </select>
        <input class="mono" aria-label="Key id" placeholder="Key id" value={keyId} onInput={(e) => setKeyId(e.currentTarget.value)} />
        <input aria-label="Identity (external id)" placeholder="Identity (external id)" value={externalId} onInput={(e) => setExternalId(e.currentTarget.value)} />
        <label class="live">
          <input type="checkbox" checked={live} onChange={(e) => setLive(e.currentTarget.checked)} />
          <span class={`live-dot${live ? ' on' : ''}`} aria-hidden="true" />Live
          {updatedAt && <span class="muted small">· {new Date(updatedAt).toLocaleTimeString()}</span>}
        </label>
      </div>

      {series.data === undefined ? (
        <Card title={`Verifications · ${range.label.toLowerCase()}`}><AsyncView value={series} rows={6}>{() => null}</AsyncView></Card>
      ) : <AsyncView value={series}>
        {(s) => (
          <>
            <div class="stats">
              <Stat label="Verifications" value={s.total} />
              <Stat label="Valid" value={s.totals.get('VALID') ?? 0} tone={OUTCOME_COLORS.VALID} hint={s.total > 0 ? `${Math.round(((s.totals.get('VALID') ?? 0) / s.total) * 100)} %` : undefined} />
              <Stat label="Rate limited" value={s.totals.get('RATE_LIMITED') ?? 0} tone={OUTCOME_COLORS.RATE_LIMITED} />
              <Stat label="Other denials" value={denied(s.totals)} tone="#64748b" hint="usage exceeded, disabled, expired, …" />
            </div>
            <Card title={`Verifications · ${range.label.toLowerCase()}`}>
              {s.total === 0 ? (
                <Empty title="No verifications in this range">
                  {filtered ? 'Nothing matches these filters yet. ' : ''}Each keys.verifyKey call shows up here within seconds{live ? '; this page refreshes by itself' : ''}.
                </Empty>
              ) : <UsageChart series={s} range={range} />}
            </Card>
          </>
        )}
      </AsyncView>}

      {!unavailable && <Card title="Breakdown" actions={
        <div class="segmented" role="group" aria-label="Break down by">
          {(Object.keys(DIMENSION_LABELS) as Dimension[]).map((d) => <button key={d} class={d === dimension ? 'active' : ''} aria-pressed={d === dimension} onClick={() => setDimension(d)}>per {DIMENSION_LABELS[d]}</button>)}
        </div>
      }>
        <AsyncView value={breakdown} isEmpty={(rows) => rows.length === 0} empty={<Empty title="Nothing to break down">No verifications in this range.</Empty>}>
          {(rows) => {
            const outcomes = [...new Set([...OUTCOMES.filter((o) => rows.some((r) => r.byOutcome.has(o))), ...rows.flatMap((r) => [...r.byOutcome.keys()])])];
            return (
              <div class="table-wrap">
                <table class="table">
                  <thead><tr><th>{DIMENSION_LABELS[dimension]}</th><th class="num">Total</th>{outcomes.map((o) => <th key={o} class="num hide-sm">{outcomeLabel(o)}</th>)}</tr></thead>
                  <tbody>
                    {rows.slice(0, 50).map((r) => (
                      <tr key={r.id}>
                        <td>{r.id === '' ? <span class="muted">none</span> : dimension === 'api' ? <a href={`#/apis/${r.id}`}>{apiName(r.id)}</a> : <span class="mono small">{r.id}</span>}</td>
                        <td class="num strong">{formatCount(r.total)}</td>
                        {outcomes.map((o) => <td key={o} class="num hide-sm">{formatCount(r.byOutcome.get(o) ?? 0)}</td>)}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
          }}
        </AsyncView>
      </Card>}
    </Page>
  );
}
