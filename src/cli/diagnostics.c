#include "cli/diagnostics.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

void cs_cli_print_warnings(const cs_scene_info* info)
{
    int kept = info->warning_count < CS_SCENE_WARNINGS_KEPT ? info->warning_count : CS_SCENE_WARNINGS_KEPT;
    for (int k = 0; k < kept; ++k)
    {
        fprintf(stderr, "%s\n", info->warnings[k]);
    }
    if (info->warning_count > kept)
    {
        fprintf(stderr, "(%d more warnings)\n", info->warning_count - kept);
    }
}

static bool same_file(const char* a, const char* b)
{
    if (strcmp(a, b) == 0)
    {
        return true;
    }
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool cs_cli_distinct_outputs(const char* cmd, const char* const* options, const char* const* paths, int count)
{
    for (int i = 0; i < count; ++i)
    {
        for (int j = i + 1; j < count && paths[i] != NULL; ++j)
        {
            if (paths[j] != NULL && same_file(paths[i], paths[j]))
            {
                fprintf(stderr,
                        "circlesim-cli %s: %s and %s both write '%s' (one would overwrite the other)\n", cmd,
                        options[i], options[j], paths[j]);
                return false;
            }
        }
    }
    return true;
}

FILE* cs_cli_open_output(const char* path)
{
    FILE* f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (f == NULL)
    {
        fprintf(stderr, "%s: cannot open for writing\n", path);
    }
    return f;
}

bool cs_cli_close_output(FILE* f)
{
    if (f == NULL)
    {
        return true;
    }
    bool failed = ferror(f) != 0;
    return f == stdout ? fflush(f) == 0 && !failed : fclose(f) == 0 && !failed;
}

bool cs_cli_named_files(const char* cmd, const char* const* options, const char* const* paths, int count)
{
    for (int i = 0; i < count; ++i)
    {
        if (paths[i] != NULL && strcmp(paths[i], "-") == 0)
        {
            fprintf(stderr,
                    "circlesim-cli %s: %s: '-' (standard output) is for the CSV outputs; name a file\n", cmd,
                    options[i]);
            return false;
        }
    }
    return true;
}
