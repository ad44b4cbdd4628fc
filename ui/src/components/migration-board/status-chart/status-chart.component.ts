import { html, LitElement, nothing, svg, type TemplateResult } from 'lit';
import { sharedStyles } from '../../../theme/shared.styles.ts';
import { statusChartStyles } from './status-chart.styles.ts';

export interface ChartBar {
  readonly key: string;
  readonly label: string;
  readonly value: number;
}

const BAR_HEIGHT = 18;
const GAP = 8;
const LABEL_WIDTH = 150;
const CHART_WIDTH = 480;

/**
 * A horizontal bar chart drawn as inline SVG, hidden from assistive technology; the same numbers
 * follow as a table (the text equivalent), so nothing is only visible in the picture.
 */
export class OplStatusChart extends LitElement {
  static override styles = [sharedStyles, statusChartStyles];

  static override properties = {
    heading: { type: String },
    bars: { attribute: false },
  };

  declare heading: string;
  declare bars: readonly ChartBar[];

  constructor() {
    super();
    this.heading = '';
    this.bars = [];
  }

  override render(): TemplateResult | typeof nothing {
    if (this.bars.length === 0) return nothing;
    const max = Math.max(1, ...this.bars.map((bar) => bar.value));
    const room = CHART_WIDTH - LABEL_WIDTH - 60;
    const height = this.bars.length * (BAR_HEIGHT + GAP);
    return html`<figure>
      <figcaption>${this.heading}</figcaption>
      <svg viewBox="0 0 ${CHART_WIDTH} ${height}" width="100%" role="presentation" aria-hidden="true" focusable="false">
        ${this.bars.map((bar, index) => {
          const y = index * (BAR_HEIGHT + GAP);
          const width = Math.round((bar.value / max) * room);
          return svg`<text x="0" y=${y + BAR_HEIGHT - 4} class="label">${bar.label}</text>
            <rect x=${LABEL_WIDTH} y=${y} width=${width} height=${BAR_HEIGHT} class="bar bar-${bar.key}"></rect>
            <text x=${LABEL_WIDTH + width + 6} y=${y + BAR_HEIGHT - 4} class="value">${bar.value.toLocaleString('en')}</text>`;
        })}
      </svg>
      <table class="visually-hidden">
        <caption>${this.heading}</caption>
        <tbody>
          ${this.bars.map((bar) => html`<tr><th scope="row">${bar.label}</th><td>${bar.value.toLocaleString('en')}</td></tr>`)}
        </tbody>
      </table>
    </figure>`;
  }
}
