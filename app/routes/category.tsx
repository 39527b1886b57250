export default function Page() {
  return <div>category</div>
}
