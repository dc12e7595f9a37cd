/* main.c - PLACEHOLDER being written. */
int main(void) { return 0; }
