#!/bin/bash
# After removing the deb or rpm (electron-builder.yml): the labeldesk command and the AppArmor
# profile go. Not on an upgrade: dpkg passes "upgrade", and rpm runs the old package's script
# after the new one's install with the number of versions left (1), which would take away what
# the new version just put there.
case "$1" in
  upgrade | [1-9]*) exit 0 ;;
esac

# Only the link this package made; anything else at that path is someone else's.
if [ "$(readlink '/usr/bin/${executable}')" = '/opt/${sanitizedProductName}/resources/bin/labeldesk' ]; then
    rm -f '/usr/bin/${executable}'
fi

APPARMOR_PROFILE_DEST='/etc/apparmor.d/${executable}'
if [ -f "$APPARMOR_PROFILE_DEST" ]; then
  # Unloaded before it is deleted, so the policy is not left enforced until the next reboot.
  if apparmor_status --enabled > /dev/null 2>&1; then
    if ! { [ -x '/usr/bin/ischroot' ] && /usr/bin/ischroot; } && hash apparmor_parser 2>/dev/null; then
      apparmor_parser --remove "$APPARMOR_PROFILE_DEST" || true
    fi
  fi
  rm -f "$APPARMOR_PROFILE_DEST"
fi
