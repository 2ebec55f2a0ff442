// Light, dark or the system's choice (prefers-color-scheme). Only the theme name is remembered
// in localStorage; no credential ever is.
export type Theme = 'system' | 'light' | 'dark';
const KEY = 'svctrail-theme';

export function savedTheme(): Theme {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

export function applyTheme(theme: Theme = savedTheme()): void {
  if (theme === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', theme);
}

export function chooseTheme(theme: Theme): void {
  try {
    if (theme === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, theme);
  } catch {
    /* storage disabled: the choice lasts for this page */
  }
  applyTheme(theme);
}
