/** The kept schedules at odd places of the list (./kept-examples.ts); the others run beside them in ./kept-a.test.ts. */
import { keptExamples } from './kept-examples';

keptExamples(1);
