// Sizes of the shell's layout that pages need too (forms scroll their errors below the fixed navbar).
export const NAVBAR_HEIGHT = 60;
