export default function Page() {
  return <div>not-found</div>
}
