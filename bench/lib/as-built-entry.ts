// First import of every bench entry script: under tsx, re-run the script as built (see as-built.ts).
import { asBuilt } from './as-built';

asBuilt();
