import { OplStatusChart } from './status-chart.component.ts';

export { OplStatusChart };

if (!customElements.get('opl-status-chart')) customElements.define('opl-status-chart', OplStatusChart);

declare global {
  interface HTMLElementTagNameMap {
    'opl-status-chart': OplStatusChart;
  }
}
