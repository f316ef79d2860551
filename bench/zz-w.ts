import { webWeights } from "./web-weight";
const w = webWeights("web/dist");
console.log((w.landing / 1000).toFixed(1), (w.dashboard / 1000).toFixed(1));
