import { startFakeYoutube } from '../../fakes/youtube/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

describeAdapterContract({ provider: 'youtube', pluginDir: 'plugins/providers/youtube', startFake: () => startFakeYoutube() });
