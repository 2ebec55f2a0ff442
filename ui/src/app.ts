// The shell: sign-in gate, navigation, time-zone and theme switches, and the current view.
import { useEffect, useState } from 'preact/hooks';
import { currentSession, type SessionInfo, signOut, whenUnauthorized } from './api';
import { html } from './html';
import { hrefFor, navigate, patchRoute, route, type View } from './route';
import { useSignal } from './signal';
import { chooseTheme, savedTheme, type Theme } from './theme';
import { AddressView } from './views/address-view';
import { FlappingView } from './views/flapping-view';
import { LiveView } from './views/live-view';
import { ServicesView } from './views/services-view';
import { SignInView } from './views/sign-in-view';
import { TimelineView } from './views/timeline-view';

const NAV: { view: View; label: string }[] = [
  { view: 'services', label: 'Services' },
  { view: 'address', label: 'Address' },
  { view: 'flapping', label: 'Flapping' },
  { view: 'live', label: 'Live' },
];

export function App() {
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined);
  const [theme, setTheme] = useState<Theme>(savedTheme());
  const r = useSignal(route);

  useEffect(() => {
    whenUnauthorized(() => setSession(null));
    currentSession().then(setSession, () => setSession(null));
  }, []);

  if (session === undefined) return html`<p class="boot">Loading svctrail…</p>`;
  if (session === null) return html`<${SignInView} onSignedIn=${setSession} />`;

  const link = (view: View) => (event: MouseEvent) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate({ view, tz: r.tz });
  };
  const zoneSwitch = () => patchRoute({ tz: r.tz === 'local' ? undefined : 'local' }, true);
  const themeSwitch = (event: Event) => {
    const next = (event.target as HTMLSelectElement).value as Theme;
    setTheme(next);
    chooseTheme(next);
  };
  const out = async () => {
    await signOut();
    setSession(null);
  };

  return html` <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <span class="brand">svctrail</span>
      <nav aria-label="Views">
        ${NAV.map((n) => html`<a href=${hrefFor({ view: n.view, tz: r.tz })} onClick=${link(n.view)} aria-current=${r.view === n.view || (n.view === 'services' && r.view === 'timeline') ? 'page' : undefined}>${n.label}</a>`)}
      </nav>
      <span class="spacer"></span>
      <button type="button" class="zone" onClick=${zoneSwitch} aria-label=${`Times in ${r.tz === 'local' ? 'local time' : 'UTC'}; switch`}>${r.tz === 'local' ? 'Local time' : 'UTC'}</button>
      <label class="theme"
        >Theme
        <select value=${theme} onChange=${themeSwitch}>
          <option value="system">System</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select></label
      >
      <span class="who" data-testid="signed-in-user" title=${session.user.groups.join(', ')}>${session.user.name}</span>
      <button type="button" onClick=${out}>Sign out</button>
    </header>
    <main id="main" tabindex="-1">
      ${r.view === 'services' ? html`<${ServicesView} route=${r} />` : null} ${r.view === 'timeline' ? html`<${TimelineView} route=${r} />` : null}
      ${r.view === 'address' ? html`<${AddressView} route=${r} />` : null} ${r.view === 'flapping' ? html`<${FlappingView} route=${r} />` : null}
      ${r.view === 'live' ? html`<${LiveView} route=${r} />` : null}
    </main>`;
}
