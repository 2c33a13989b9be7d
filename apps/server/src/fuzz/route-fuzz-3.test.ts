import { fuzzRouteShard } from './route-fuzz.js';

await fuzzRouteShard(3);
