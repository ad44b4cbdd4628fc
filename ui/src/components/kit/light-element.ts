import { LitElement } from 'lit';

/**
 * A sub-component of a page that renders into the page's own shadow root instead of one of its own.
 * Why: the page's ids, `aria-labelledby`/`aria-describedby` references, focus moves and styles keep
 * working across the split exactly as they did when the page was one component, so what the user
 * sees and hears does not change. The page adopts the sub-component's styles module.
 */
export class OplLightElement extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}
