import { realPlatform } from '@/lib/platform';
import { wireBackground } from '@/lib/wire';

/** Background worker: the production wiring of `lib/worker/wire.ts` on the real platform (listeners registered synchronously). */
export default defineBackground(() => void wireBackground(realPlatform(browser)));
