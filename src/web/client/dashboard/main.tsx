import { render } from 'preact';
import { App } from './app.js';
import './dashboard.css';

const root = document.getElementById('app');
if (root) {
  document.title = 'Intake dashboard';
  // The server's shell (a loading notice for people without JavaScript) makes way for the app.
  root.replaceChildren();
  render(<App />, root);
}
