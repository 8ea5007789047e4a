/**
 * The renderer's frame: the Connect screen until a key is accepted, the sign-in screen once the
 * company has people, the new-password screen while a change is due, then the report browser, the shipments or the settings, with the company and the person
 * always visible (staff of several companies share a desk), locked over the page when idle.
 */
import type { ReactNode } from 'react';
import { AlarmsHeader, AlarmsScreen, AlarmsTabLabel } from './components/AlarmsScreen';
import { BackupsHeader } from './components/BackupsSettings';
import { ConnectScreen } from './components/ConnectScreen';
import { InsightsScreen } from './components/InsightsScreen';
import { AuditScreen } from './components/AuditScreen';
import { OfflineIndicator } from './components/OfflineIndicator';
import { ChangePasswordScreen, FirstAdmin, LockScreen, PersonBadge, SignInScreen, useIdleLock } from './components/PeopleScreens';
import { ReportBrowser } from './components/ReportBrowser';
import { SettingsScreen } from './components/SettingsScreen';
import { ShipmentsScreen } from './components/ShipmentsScreen';
import { SyncIndicator } from './components/SyncIndicator';
import { stores, useConnection, useUi } from './state/stores';
import { TIME_ZONES, zoneLabel } from './lib/time-zone';
import { timeZoneStore, useTimeZone } from './state/time-zone';

/** The one zone every time on the screen is shown in, said once, here. */
function ZoneChoice() {
  const zone = useTimeZone();
  return (
    <label className="app-header__zone" data-testid="header-zone">
      <span>Times in</span>
      <select aria-label="Time zone of every time shown" value={zone} onChange={(e) => timeZoneStore.getState().setZone(e.target.value === 'utc' ? 'utc' : 'local')}>
        {TIME_ZONES.map((z) => (
          <option key={z} value={z}>
            {zoneLabel(z)}
          </option>
        ))}
      </select>
    </label>
  );
}

function Header() {
  const view = useUi((s) => s.view);
  const company = useConnection((s) => s.session?.companyName ?? '');
  const tab = (id: 'reports' | 'shipments' | 'insights' | 'alarms' | 'audit' | 'settings', label: ReactNode) => (
    <button
      type="button"
      role="tab"
      aria-selected={view === id}
      className={`tab${view === id ? ' is-active' : ''}`}
      onClick={() => stores.ui.getState().setView(id)}
    >
      {label}
    </button>
  );
  return (
    <header className="app-header">
      <span className="app-header__brand">LabelDesk</span>
      <nav role="tablist" aria-label="Screens" className="tabs">
        {tab('reports', 'Reports')}
        {tab('shipments', 'Shipments')}
        {tab('insights', 'Insights')}
        {tab('alarms', <AlarmsTabLabel />)}
        {tab('audit', 'Audit')}
        {tab('settings', 'Settings')}
      </nav>
      <OfflineIndicator />
      <AlarmsHeader />
      <SyncIndicator />
      <BackupsHeader />
      <ZoneChoice />
      <span className="app-header__company" data-testid="header-company" title={company}>
        {company}
      </span>
      <PersonBadge />
    </header>
  );
}

export function App() {
  const phase = useConnection((s) => s.phase);
  const view = useUi((s) => s.view);
  const needsPerson = useConnection((s) => s.session?.hasPeople === true && !s.session.person);
  const changeDue = useConnection((s) => s.session?.person !== undefined && s.session.passwordChangeDue !== undefined);
  const locked = useConnection((s) => s.locked);
  useIdleLock();
  if (phase === 'idle' || phase === 'resolving') {
    return (
      <main className="connect">
        <h1>LabelDesk</h1>
        <p>Connecting to the local service…</p>
      </main>
    );
  }
  if (phase === 'connect') return <ConnectScreen />;
  if (needsPerson) return <SignInScreen />;
  // Nothing else answers such a session (403 PASSWORD_CHANGE_REQUIRED): the app shows nothing else.
  if (changeDue) {
    return (
      <>
        <ChangePasswordScreen />
        {locked && <LockScreen />}
      </>
    );
  }
  return (
    <div className="app">
      <Header />
      <FirstAdmin />
      {locked && <LockScreen />}
      <main className="app-main">{view === 'settings' ? <SettingsScreen /> : view === 'insights' ? <InsightsScreen /> : view === 'alarms' ? <AlarmsScreen /> : view === 'shipments' ? <ShipmentsScreen /> : view === 'audit' ? <AuditScreen /> : <ReportBrowser />}</main>
    </div>
  );
}
