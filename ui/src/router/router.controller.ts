import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { resolveHash, type Route } from './route.ts';

/** Keeps its host in step with `location.hash`, normalising the address without a history entry. */
export class HashRouterController implements ReactiveController {
  route: Route;
  readonly #host: ReactiveControllerHost;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    this.route = resolveHash(window.location.hash).route;
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('hashchange', this.#sync);
    this.#sync();
  }

  hostDisconnected(): void {
    window.removeEventListener('hashchange', this.#sync);
  }

  readonly #sync = (): void => {
    const { route, canonicalHash } = resolveHash(window.location.hash);
    if (canonicalHash !== window.location.hash) {
      window.history.replaceState(window.history.state, '', canonicalHash);
    }
    this.route = route;
    this.#host.requestUpdate();
  };
}
