/**
 * A ts-morph project that is cheap on purpose: only the files the user named, no lib.d.ts, no
 * @types, no import resolution beyond the files already added, no diagnostics. The type checker is
 * only built when an imported name has to be followed through a local re-export (resolve.ts).
 */
import { Project, ts } from 'ts-morph';

export const CODE_EXTENSIONS = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i;

export function createCodeProject(files: readonly string[]): Project {
  const project = new Project({
    compilerOptions: {
      allowJs: true,
      checkJs: false,
      noLib: true,
      types: [],
      noResolve: true,
      skipLibCheck: true,
      noEmit: true,
      jsx: ts.JsxEmit.Preserve,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
    },
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    skipLoadingLibFiles: true,
  });
  for (const file of files) project.addSourceFileAtPath(file);
  return project;
}
