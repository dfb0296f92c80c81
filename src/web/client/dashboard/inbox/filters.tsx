import { useState } from 'preact/hooks';
import { inWorkspace } from '../api/client.js';
import { Tick } from '../ui/controls.js';
import { DateRange, RangeProblem } from '../ui/date-range.js';
import {
  EXPORT_CHOICES,
  type ExportChoice,
  exportHref,
  type Filter,
  type InboxForm,
  rangeProblem,
  readOf,
  statusOf,
} from './model.js';
import { SHORTCUTS } from './shortcuts.js';

/** From this width the filters start open; on a phone they start folded, so the first response shows without scrolling. */
const WIDE = '(min-width: 48rem)';

/** How many parts of the filter are set: said on the folded filters' summary. */
const activeParts = (filter: Filter): number =>
  [filter.status, filter.read, filter.from, filter.to].filter((part) => part !== '').length +
  (filter.starred ? 1 : 0);

/**
 * The inbox's filter (status, read, a date range, starred), folded into "Filters" (open on a
 * wide screen), and beside it the export of exactly what it lists: CSV or Excel made for a
 * spreadsheet, or NDJSON; a labelled select picks the format, the link downloads it.
 */
export function Filters({
  form,
  filter,
  change,
}: {
  form: InboxForm | undefined;
  filter: Filter;
  change: (part: Partial<Filter>) => void;
}) {
  const badRange = rangeProblem(filter);
  // decided once, when the inbox opens: the person's own opening and closing is kept after
  const [open] = useState(() => typeof matchMedia !== 'function' || matchMedia(WIDE).matches);
  const active = activeParts(filter);
  const [format, setFormat] = useState<ExportChoice>('csv');
  const chosen = EXPORT_CHOICES.find((choice) => choice.format === format) ?? EXPORT_CHOICES[0];
  return (
    <>
      <div class="inbox__toolbar">
        <details class="inbox__filter-box" open={open}>
          <summary>Filters{active > 0 ? ` (${active} set)` : ''}</summary>
          <div class="inbox__filters">
            <div class="control-row">
              <label for="filter-status">Show</label>
              <select
                id="filter-status"
                value={filter.status}
                onChange={(event) => change({ status: statusOf(event.currentTarget.value) })}
              >
                <option value="">Accepted and flagged</option>
                <option value="accepted">Accepted</option>
                <option value="flagged">Flagged as spam</option>
                <option value="quarantined">Quarantined</option>
                <option value="partial">In progress (saved, not sent)</option>
              </select>
            </div>
            <div class="control-row">
              <label for="filter-read">Read</label>
              <select
                id="filter-read"
                value={filter.read}
                onChange={(event) => change({ read: readOf(event.currentTarget.value) })}
              >
                <option value="">Read or not</option>
                <option value="false">Unread</option>
                <option value="true">Read</option>
              </select>
            </div>
            <DateRange
              id="filter"
              from={filter.from}
              to={filter.to}
              problem={badRange}
              change={(bound, value) => change({ [bound]: value })}
            />
            <Tick
              id="filter-starred"
              label="Starred only"
              checked={filter.starred}
              onChange={(starred) => change({ starred })}
            />
          </div>
        </details>
        {form && !badRange && (
          <div class="control-row inbox__export">
            <label for="export-format">Export as</label>
            <select
              id="export-format"
              value={format}
              onChange={(event) => setFormat(event.currentTarget.value as ExportChoice)}
            >
              {EXPORT_CHOICES.map((choice) => (
                <option key={choice.format} value={choice.format}>
                  {choice.label}
                </option>
              ))}
            </select>
            <a class="button" href={inWorkspace(exportHref(form, filter, format))} download>
              Export {chosen.label}
            </a>
          </div>
        )}
      </div>
      <RangeProblem id="filter" problem={badRange} />
    </>
  );
}

/** What the keys do, and the switch that turns them off. */
export function ShortcutsHelp({ on, setOn }: { on: boolean; setOn: (on: boolean) => void }) {
  return (
    <details class="inbox__keys">
      <summary>Keyboard shortcuts</summary>
      <Tick id="inbox-keys-on" label="Use these keys" checked={on} onChange={setOn} />
      <dl>
        {SHORTCUTS.map((shortcut) => (
          <div key={shortcut.key}>
            <dt>
              <kbd>{shortcut.key}</kbd>
            </dt>
            <dd>{shortcut.words}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
