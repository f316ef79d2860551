import { webWeights } from "./web-weight";
const w = webWeights(process.argv[2] ?? "web/dist");
console.log((w.landing / 1000).toFixed(1), (w.dashboard / 1000).toFixed(1));
