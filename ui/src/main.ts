// Entry point: applies the saved theme choice, then renders the app.
import { render } from 'preact';
import { App } from './app';
import { html } from './html';
import { applyTheme } from './theme';

applyTheme();
render(html`<${App} />`, document.getElementById('app')!);
