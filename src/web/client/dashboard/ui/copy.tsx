import { useState } from 'preact/hooks';

/** A button that copies `text`, and says so (or, when the browser refuses, how to copy it by hand). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied');
    } catch {
      setSaid('Copying was refused: select the text and press Ctrl+C (⌘C on a Mac)');
    }
  };
  return (
    <span class="copy">
      <button class="button button--small" type="button" onClick={copy}>
        {label}
      </button>
      <span class="copy__said" role="status">
        {said}
      </span>
    </span>
  );
}
