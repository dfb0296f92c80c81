import type { ComponentChildren, RefObject } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * The width the chart's box is given (CSS pixels, at least 200), measured again whenever it
 * changes: a chart is drawn at that width, so its text keeps its size on a phone. 640 until the
 * first measure.
 */
export function useMeasuredWidth(): [RefObject<HTMLDivElement | null>, number] {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(200, Math.floor(element.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [box, width];
}

export interface LegendEntry {
  key: string;
  label: string;
  /** The series' own shape, small (hidden from assistive technology: the label names it). */
  swatch: ComponentChildren;
}

/**
 * What each chart of the analytics view is: a figure with its caption and legend, and the SVG,
 * an image named by `summary` (its table beside it is its equivalent), drawn at `width` ×
 * `height` inside the measured box (`useMeasuredWidth`).
 */
export function ChartFrame({
  class: className = 'chart',
  svgClass = 'chart__svg',
  caption,
  legend,
  summary,
  box,
  width,
  height,
  children,
}: {
  class?: string;
  svgClass?: string;
  caption: string;
  legend: readonly LegendEntry[];
  summary: string;
  box: RefObject<HTMLDivElement | null>;
  width: number;
  height: number;
  children: ComponentChildren;
}) {
  return (
    <figure class={className}>
      <figcaption class="chart__caption">{caption}</figcaption>
      <ul class="chart__legend">
        {legend.map((entry) => (
          <li key={entry.key}>
            {entry.swatch}
            {entry.label}
          </li>
        ))}
      </ul>
      <div class="chart__box" ref={box}>
        <svg
          class={svgClass}
          role="img"
          aria-label={summary}
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
        >
          {children}
        </svg>
      </div>
    </figure>
  );
}
