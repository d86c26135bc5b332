/* Loaded by LD_PRELOAD from a bot's [env]: says where it ran. In the sandbox it runs in the
 * bot's own program only (uid 1000 there); before the fix it also ran in the launcher chain
 * outside the sandbox, as the arena's user, and could write HOSTILE_MARKER on the host. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void announce(void) {
    const char *marker = getenv("HOSTILE_MARKER");
    if (marker != NULL) {
        FILE *out = fopen(marker, "a");
        if (out != NULL) {
            fprintf(out, "ran as uid %d\n", (int)getuid());
            fclose(out);
        }
    }
    fprintf(stderr, "PRELOAD ran as uid %d\n", (int)getuid());
}
