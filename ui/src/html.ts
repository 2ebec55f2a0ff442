// htm over Preact's h: tagged templates instead of JSX, so the UI needs no JSX compile step.
// Interpolated values are always text or props, never parsed as markup.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
