import { css } from 'lit';

/** Adopted by the Connections page, whose shadow root the list renders into: the element adds no box of its own. */
export const accountListStyles = css`
  opl-account-list {
    display: contents;
  }
`;
