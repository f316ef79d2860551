import { webWeights } from "./web-weight";
const w = webWeights(process.argv[2]);
console.log(Object.entries(w.files).map(([f, n]) => `${f.replace(/-[\w-]{8}\./, ".")} ${n}`).sort().join("\n"));
