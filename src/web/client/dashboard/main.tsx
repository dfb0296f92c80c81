import { render } from 'preact';
import { App } from './app.js';
import './dashboard.css';

const root = document.getElementById('app');
if (root) {
  // The server's shell (a loading notice for people without JavaScript) makes way for the app.
  root.replaceChildren();
  render(<App />, root);
}
