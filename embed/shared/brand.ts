// The class a shop puts on any element to open the embed: the brand with a capital (`service` → `Service`). The
// server computes it here and fills it into the loader (server/embed/assets.ts) and the demo pages.
export const brandClass = (brand: string): string => brand.charAt(0).toUpperCase() + brand.slice(1);
