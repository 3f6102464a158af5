/* netsched — the layering check (cmake/LinkCheck.cmake). This program is
 * linked with every object of one pipeline stage (--whole-archive) and,
 * normally, the stages below it: a stage that calls a function of a stage
 * above it leaves an undefined reference and the build fails. */
int main(void)
{
  return 0;
}
