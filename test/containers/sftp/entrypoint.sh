#!/bin/sh
# Fresh keys on every start: the host key (its fingerprint is what a feed pins in
# source.location.hostKey) and the lab user's key pair, whose private half the test hands to the
# workers in an environment variable. The keys live only in this container.
set -eu
ssh-keygen -q -t ed25519 -N '' -f /etc/ssh/ssh_host_ed25519_key
mkdir -p /etc/ssh/authorized_keys /keys
ssh-keygen -q -t ed25519 -N '' -C erp-bridge-lab -f /keys/erp_ed25519
cp /keys/erp_ed25519.pub /etc/ssh/authorized_keys/erp
chmod 0644 /etc/ssh/authorized_keys/erp
mkdir -p /home/erp/exports
chown erp:erp /home/erp/exports
# -D: stay in the foreground as PID 1; -e: log to stderr (podman logs).
exec /usr/sbin/sshd -D -e
