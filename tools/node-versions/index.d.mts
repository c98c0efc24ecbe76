export declare const MAJORS: readonly number[];
export declare function nodeBinary(major: number): string | undefined;
export declare function missingReason(major: number): string;
