import { css } from 'lit';

/** Adopted by the Connections page, whose shadow root the list renders into: the element adds no box of its own. */
export const providerListStyles = css`
  opl-provider-list {
    display: contents;
  }
`;
