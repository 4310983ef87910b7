/** The kept schedules at even places of the list (./kept-examples.ts); the others run beside them in ./kept-b.test.ts. */
import { keptExamples } from './kept-examples';

keptExamples(0);
