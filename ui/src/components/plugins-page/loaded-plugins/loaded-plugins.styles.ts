import { css } from 'lit';

/** Adopted by the Plugins page, whose shadow root the table renders into: the element adds no box of its own. */
export const loadedPluginsStyles = css`
  opl-loaded-plugins {
    display: contents;
  }
`;
