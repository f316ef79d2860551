/** The spec's highlight rule: an entry is active when the path equals its link or begins with its link minus the last segment. */
export function isNavActive(currentPath: string, link: string): boolean {
  if (currentPath === link) return true;
  const prefix = link.slice(0, link.lastIndexOf("/"));
  return prefix.length > 0 && currentPath.startsWith(`${prefix}/`);
}
