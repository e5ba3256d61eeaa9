# deb_layout.cmake — CPack pre-build script (CPACK_PRE_BUILD_SCRIPTS, cmake/packaging.cmake): in
# the staged /usr tree of the Debian package, the zsh completion goes where Debian's zsh looks for
# packages' completions (/usr/share/zsh/vendor-completions), whatever prefix the build was
# configured with.
file(GLOB_RECURSE _staged LIST_DIRECTORIES false "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*/_rtpar")
foreach(f ${_staged})
  get_filename_component(dir ${f} DIRECTORY)
  if(NOT dir MATCHES "/usr/share/zsh/vendor-completions$")
    string(REGEX REPLACE "/usr/share/zsh/.*$" "/usr/share/zsh/vendor-completions" to ${dir})
    file(MAKE_DIRECTORY ${to})
    file(RENAME ${f} ${to}/_rtpar)
    file(REMOVE_RECURSE ${dir})
  endif()
endforeach()
