import { startFakeDeezer } from '../../fakes/deezer/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// Deezer signals rate limits in-band (HTTP 200 with error code 4, no Retry-After), so the host has
// no 429 to wait out: the plugin reports a RateLimited with Deezer's 5-second window at once.
describeAdapterContract({ provider: 'deezer', pluginDir: 'plugins/providers/deezer', startFake: () => startFakeDeezer(), inBandRateLimits: true });
