export declare const SNAPSHOT: string;
export declare function render(): Promise<string>;
