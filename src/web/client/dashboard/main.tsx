import { render } from 'preact';
import { App, startEarly } from './app.js';
// One stylesheet for the whole dashboard (a few kB), kept in a file per part
import './dashboard.css';
import './builder.css';
import './inbox.css';
import './analytics.css';
import './webhooks.css';
import './first-run.css';

const root = document.getElementById('app');
if (root) {
  startEarly(location.pathname);
  // The server's shell (a loading notice for people without JavaScript) makes way for the app.
  root.replaceChildren();
  render(<App />, root);
}
