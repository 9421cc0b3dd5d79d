// describe.mjs DIR... — what snarkjs itself reads from each vector folder: the numbers the C++
// tests (tests/formats/vectors.hpp) expect. Prints one C++ initializer row per folder.
import * as snarkjs from "snarkjs";
import { readR1cs } from "r1csfile";
import path from "path";

for (const dir of process.argv.slice(2)) {
  const zk = await snarkjs.zKey.exportJson(path.join(dir, "circuit.zkey"));
  const cs = await readR1cs(path.join(dir, "circuit.r1cs"), { loadConstraints: false, loadMap: false });
  const w = await snarkjs.wtns.exportJson(path.join(dir, "witness.wtns"));
  const nCoefs = zk.ccoefs.length;
  console.log(`    {"${path.basename(dir)}", ${zk.n8q}, ${zk.nVars}, ${zk.nPublic}, ${zk.domainSize}, ` +
    `${nCoefs}, ${cs.nVars}, ${cs.nOutputs}, ${cs.nPubInputs}, ${cs.nPrvInputs}, ${cs.nLabels}, ` +
    `${cs.nConstraints}, ${w.length}},`);
  if (cs.curve) await cs.curve.terminate();
}
process.exit(0);
