import { startFakeSpotify } from '../../fakes/spotify/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

describeAdapterContract({ provider: 'spotify', pluginDir: 'plugins/providers/spotify', startFake: () => startFakeSpotify() });
