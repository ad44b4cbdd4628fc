import { startFakeTidal } from '../../fakes/tidal/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

describeAdapterContract({ provider: 'tidal', pluginDir: 'plugins/providers/tidal', startFake: () => startFakeTidal() });
